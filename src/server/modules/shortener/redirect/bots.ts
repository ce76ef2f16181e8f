// Who clicked: a bot (user-agent rules) or a person on a mobile, tablet or desktop device.
// The rules are ours (no dependency): crawlers and search engines, the link previewers that
// fetch a link as soon as it arrives in a chat or an SMS app (WhatsApp, Facebook, Telegram,
// Slack, Skype, iMessage's Twitterbot/Facebot), HTTP libraries and command-line tools, headless
// browsers, uptime monitors and security scanners. A request without a user agent is a bot:
// every browser sends one. Bot clicks are stored, marked, and left out of the counts (Shlink's
// potentialBot; Kutt skips them with isbot).

const BOT = new RegExp(
  [
    'bot\\b', 'bot/', 'bot;', 'crawl', 'spider', 'slurp', 'scrap', 'preview', 'fetch', 'monitor', 'scan', 'check', 'validator', 'archiv',
    'facebookexternalhit', 'facebot', 'whatsapp', 'telegram', 'skypeuripreview', 'embedly', 'vkshare', 'pinterest', 'quora link', 'outbrain',
    'bingpreview', 'mediapartners', 'adsbot', 'google-read-aloud', 'googleother', 'google-inspectiontool', 'chrome-lighthouse', 'lighthouse',
    'headlesschrome', 'phantomjs', 'puppeteer', 'playwright', 'selenium',
    'curl/', 'wget/', 'libwww', 'python', 'aiohttp', 'httpx', 'go-http-client', 'java/', 'okhttp', 'apache-httpclient', 'axios', 'node-fetch',
    'undici', 'got (', 'ruby', 'perl', 'php/', 'guzzle', 'postman', 'insomnia', 'httpie', 'powershell', 'dart:io', 'reqwest', 'libcurl',
    'nmap', 'nikto', 'masscan', 'zgrab', 'censys', 'shodan', 'nuclei', 'sqlmap',
  ].map((s) => s.replace(/[.*+?^${}()|[\]]/g, (c) => (c === '\\' ? c : `\\${c}`))).join('|'),
  'i',
);

export type DeviceClass = 'mobile' | 'tablet' | 'desktop' | 'bot' | 'unknown';

export function isBot(userAgent: string | undefined): boolean {
  if (!userAgent || userAgent.length < 8) return true;
  return BOT.test(userAgent);
}

// User agents repeat (a handful of browsers and versions make most clicks): the answers of the
// last MEMO_MAX distinct ones are kept, so the rules run once per user agent, not per click.
const MEMO_MAX = 2000;
const memo = new Map<string, DeviceClass>();

/** The device class of a user agent (bots first). */
export function deviceClass(userAgent: string | undefined): DeviceClass {
  if (!userAgent) return 'bot';
  const known = memo.get(userAgent);
  if (known) return known;
  const answer = classify(userAgent);
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  if (userAgent.length <= 512) memo.set(userAgent, answer);
  return answer;
}

function classify(userAgent: string): DeviceClass {
  if (isBot(userAgent)) return 'bot';
  const ua = userAgent!;
  if (/ipad|tablet|kindle|silk\/|playbook|(android(?!.*mobile))/i.test(ua)) return 'tablet';
  if (/mobi|iphone|ipod|android|blackberry|opera mini|iemobile|windows phone/i.test(ua)) return 'mobile';
  if (/windows nt|macintosh|mac os x|x11|linux|cros/i.test(ua)) return 'desktop';
  return 'unknown';
}
