// Copy to the clipboard for the Copy buttons (a secret shown once, an example call): answers
// whether it worked, so the button can say so; a browser that refuses (no permission, not a
// secure page) is an answer, not an error.
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
