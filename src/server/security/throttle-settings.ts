// Abuse throttling's settings, the one owner of its defaults and of the variables that
// override them, read once by `npm start` (main.ts):
//   THROTTLE_GLOBAL    "requests/seconds" per client IP on every request (default 600/60)
//   THROTTLE_REDIRECT  "requests/seconds" per client IP on the short-link redirect, in place of the global one (default 12000/60)
//   THROTTLE_SIGNIN    "perIp/perAccount/seconds" for validate and sign-in (default 30/10/300)
//   THROTTLE_REGISTER  the same for registering a company (default 10/5/3600)
//   THROTTLE_RECOVERY  the same for both steps of password recovery (default 10/5/900)
//   THROTTLE_OTP       the same for sending and checking one-time codes (default 20/10/600)
//   REDIS_URL          counters in Redis; else with DATABASE_URL in PostgreSQL; else in memory
// An operation's class is declared in its YAML (`throttle:` in schemas/api/*.yaml). The defaults
// follow what Auth0 and Twilio Verify apply: a person mistyping a password or a code never meets
// them; a script guessing across many accounts from one address, or at one account from many
// addresses, does within a few tries per minute. The per-account counters count requests from
// every address, not only failures. For sign-in (validate and signin) perAccount refuses per
// (account, address) only; past it from every address together sign-in asks for the captcha
// instead of refusing, so nobody can lock the owner out (security/throttle.ts).

export type ThrottleClass = 'signin' | 'register' | 'recovery' | 'otp';

export interface ClassLimit { perIp: number; perAccount: number; windowMs: number }

export interface ThrottleSettings {
  global: { perIp: number; windowMs: number };
  /** The public short-link redirect's own limit per client IP, in place of the global one. */
  redirect: { perIp: number; windowMs: number };
  classes: Record<ThrottleClass, ClassLimit>;
  /** Where the counters live: this process's memory, the database (shared by every API process) or Redis. */
  store: 'memory' | 'database' | { redisUrl: string };
}

export const DEFAULT_THROTTLE: Omit<ThrottleSettings, 'store'> = {
  // The console loads about 40 files and a dozen API answers per page: 600 a minute is a person
  // clicking through screens fast, not a script.
  global: { perIp: 600, windowMs: 60_000 },
  // A campaign's clicks come from mobile networks behind carrier-grade NAT, where thousands of
  // people share one public address: the global 600 a minute would refuse real clicks minutes
  // after a big send. The redirect is built for thousands per second (a hit never reads the
  // database), so its limit per address is 200 a second, which only a script reaches.
  redirect: { perIp: 12_000, windowMs: 60_000 },
  classes: {
    signin: { perIp: 30, perAccount: 10, windowMs: 5 * 60_000 },
    register: { perIp: 10, perAccount: 5, windowMs: 60 * 60_000 },
    recovery: { perIp: 10, perAccount: 5, windowMs: 15 * 60_000 },
    otp: { perIp: 20, perAccount: 10, windowMs: 10 * 60_000 },
  },
};

const CLASS_VARIABLES: Record<ThrottleClass, string> = {
  signin: 'THROTTLE_SIGNIN', register: 'THROTTLE_REGISTER', recovery: 'THROTTLE_RECOVERY', otp: 'THROTTLE_OTP',
};

function parts(env: NodeJS.ProcessEnv, name: string, count: number): number[] | null {
  const text = env[name];
  if (text === undefined || text === '') return null;
  const values = text.split('/').map((p) => Number(p.trim()));
  if (values.length !== count || values.some((v) => !Number.isInteger(v) || v <= 0)) {
    throw new Error(`${name} must be ${count === 2 ? '"requests/seconds"' : '"perIp/perAccount/seconds"'} in positive whole numbers, got ${text}`);
  }
  return values;
}

/** A "requests/seconds" limit per client IP from `name`, else the default. */
function perIpLimit(env: NodeJS.ProcessEnv, name: string, fallback: ThrottleSettings['global']): ThrottleSettings['global'] {
  const v = parts(env, name, 2);
  return v ? { perIp: v[0], windowMs: v[1] * 1000 } : fallback;
}

/** The settings from the environment: the defaults unless overridden; the store from REDIS_URL / DATABASE_URL. */
export function throttleSettings(env: NodeJS.ProcessEnv): ThrottleSettings {
  const classes = { ...DEFAULT_THROTTLE.classes };
  for (const [cls, name] of Object.entries(CLASS_VARIABLES) as [ThrottleClass, string][]) {
    const v = parts(env, name, 3);
    if (v) classes[cls] = { perIp: v[0], perAccount: v[1], windowMs: v[2] * 1000 };
  }
  return {
    global: perIpLimit(env, 'THROTTLE_GLOBAL', DEFAULT_THROTTLE.global),
    redirect: perIpLimit(env, 'THROTTLE_REDIRECT', DEFAULT_THROTTLE.redirect),
    classes,
    store: env.REDIS_URL ? { redisUrl: env.REDIS_URL } : env.DATABASE_URL ? 'database' : 'memory',
  };
}
