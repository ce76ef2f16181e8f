// Where a signed-in user belongs, by user and company state (spec 2, "Redirects by state").
// The console's guards and the server's session answers both follow this one table.

export interface StateCarrier {
  state: string;
  company: { state: string } | null;
}

export type Landing = '/userValidation' | '/validation' | '/resetPassword' | '/notActive' | null;

/** null means the full app may show. */
export function landingFor(user: StateCarrier): Landing {
  if (user.state === 'pending') return '/userValidation';
  if (!user.company || user.company.state === 'validation' || user.state === 'validation') return '/validation';
  if (user.state === 'needsNewPassword' || user.state === 'ExpiredPassword') return '/resetPassword';
  if (user.state !== 'active' || user.company.state !== 'active') return '/notActive';
  return null;
}

export const isFullApp = (user: StateCarrier) => landingFor(user) === null;

/** Routes a user in a given landing state may still open (the reduced screen's own routes). */
export const allowedWhileRedirected: Record<Exclude<Landing, null>, string[]> = {
  '/userValidation': ['/userValidation'],
  '/validation': ['/validation'],
  '/resetPassword': ['/resetPassword'],
  '/notActive': ['/notActive'],
};
