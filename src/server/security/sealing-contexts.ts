// What each sealed column binds its ciphertext to (SecretBox.seal's context, AES-GCM's associated
// data): the column and the company, so a value copied to another column, row or company does not
// open. One list, read by the writers of each column and by everything that opens it.

/** A channel's secret column (authorization_token, page_access_token, client_token, private_key, account_sids). */
export const channelSecretContext = (column: string, companyId: number) => `channels.${column}:${companyId}`;

/** The company's FTP drop box password (API settings). */
export const ftpPasswordContext = (companyId: number) => `api_settings.ftp_password:${companyId}`;

/** The company's status-callback signing secret (messaging settings). */
export const callbackSecretContext = (companyId: number) => `messaging_settings.callback_secret:${companyId}`;
