// A number setting from the environment, read the same way by every setting of the server and the
// engine: unset or empty is undefined (the caller keeps its default); anything but a non-negative
// number stops the start-up naming the variable, rather than running with a value nobody chose.
export function numberFrom(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}
