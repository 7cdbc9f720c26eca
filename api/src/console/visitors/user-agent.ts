/**
 * Browsers by their own token, most specific first: Edge, Opera, Samsung Internet and others
 * also say "Chrome/…", and every browser on iOS says "Safari", so the order decides.
 */
const BROWSERS: readonly [name: string, token: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|OPT|Opera)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Yandex Browser', /\bYaBrowser\/(\d+)/],
  ['Vivaldi', /\bVivaldi\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  // automation (a crawler, a test): worth knowing it is not a person
  ['Headless Chrome', /\bHeadlessChrome\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)(?:\.\d+)*(?: Mobile\/\S+)? Safari\//],
  ['Internet Explorer', /\b(?:MSIE |Trident\/.*\brv:)(\d+)/],
];

const WINDOWS: Record<string, string> = { '6.1': 'Windows 7', '6.2': 'Windows 8', '6.3': 'Windows 8.1' };

/** The operating system, with its version where the user agent still tells the truth about it. */
function osOf(ua: string): string | null {
  const ios = /\b(iPhone|iPad|iPod)\b.*? OS (\d+)(?:_(\d+))?/.exec(ua);
  if (ios) return `${ios[1] === 'iPad' ? 'iPadOS' : 'iOS'} ${ios[2]}${ios[3] ? `.${ios[3]}` : ''}`;
  const android = /\bAndroid(?: (\d+(?:\.\d+)?))?(; K\))?/.exec(ua);
  // Chrome's reduced user agent says "Android 10; K" whatever the version: name no version then
  if (android) return android[1] && !android[2] ? `Android ${android[1]}` : 'Android';
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  const windows = /\bWindows NT (\d+\.\d+)/.exec(ua);
  if (windows) return WINDOWS[windows[1]!] ?? 'Windows';
  if (/\bWindows\b/.test(ua)) return 'Windows';
  // macOS versions stopped at 10_15_7 in every browser's user agent: naming one would mislead
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bLinux\b/.test(ua)) return 'Linux';
  return null;
}

/**
 * A user agent in words, for the console's visitor profile: the browser with its major version
 * and the operating system, e.g. "Chrome 131 on macOS", "Safari 17 on iOS 17.4"; only what is
 * known ("Firefox 133", "Android"); null for one it cannot read (a bot, a library), whose raw
 * string the profile shows instead. Our own small parser for the major browsers: the profile
 * needs a phrase, not a device database.
 * @example describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36') // 'Chrome 131 on macOS'
 */
export function describeUserAgent(ua: string | null): string | null {
  if (!ua) return null;
  let browser: string | null = null;
  for (const [name, token] of BROWSERS) {
    const m = token.exec(ua);
    if (m) {
      browser = `${name} ${m[1]}`;
      break;
    }
  }
  const os = osOf(ua);
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os;
}
