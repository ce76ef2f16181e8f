// What each sealed column binds its ciphertext to (SecretBox.seal's context, AES-GCM's associated
// data): the column and the company, so a value copied to another column, row or company does not
// open. One list, read by the writers of each column and by everything that opens it.

/**
 * A channel's credential field (its API name: authorizationToken, accountSids…), in the channel's
 * sealed credentials document. The binding names the field as its column was named before the
 * fields moved into one document (channels.authorization_token:7), so every value stored then
 * still opens; a field a new channel type declares is named the same way.
 */
export const channelCredentialContext = (field: string, companyId: number) =>
  `channels.${field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}:${companyId}`;

/** The company's FTP drop box password (API settings). */
export const ftpPasswordContext = (companyId: number) => `api_settings.ftp_password:${companyId}`;

/** The company's status-callback signing secret (messaging settings). */
export const callbackSecretContext = (companyId: number) => `messaging_settings.callback_secret:${companyId}`;
