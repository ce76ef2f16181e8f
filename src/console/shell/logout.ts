// Logout (spec 4): sign out on the server, then clear the user, the branch office and all local
// storage except the language choice, and go to the sign-in page.
import { clientAuthSignout } from '../../generated/client.gen.ts';
import { sessionChanged } from '../api/session.ts';
import { clearAllButLanguage } from '../api/storage.ts';

export async function logout(go: (to: string) => void, clearCache?: () => void | Promise<unknown>): Promise<void> {
  try {
    await clientAuthSignout({});
  } catch (error) {
    console.warn('signout failed', error);
  }
  clearAllButLanguage();
  sessionChanged();
  await clearCache?.();
  go('/signin');
}
