// Uniqueness is checked before writing (for a clear answer) and enforced by unique indexes; when
// two requests race past the check, the index's violation (SQLSTATE 23505) becomes the same
// catalogue answer the check gives.
export const isUniqueViolation = (e: unknown) => typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';

/** Runs a write; a unique-index violation is answered with `refusal()` instead. */
export async function uniqueOr<T>(write: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw refusal();
    throw error;
  }
}
