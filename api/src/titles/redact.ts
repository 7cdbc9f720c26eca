/**
 * Makes a visitor's text safe to show a title model: secrets become placeholders, and text
 * that tries to act as instructions (or to fake the prompt's structure) is neutralized.
 *
 * Over-redaction is the cheap failure here (a title loses a detail); under-redaction sends
 * a secret to a third party. So the patterns lean wide: any 32+ character token mixing
 * letters and digits is treated as a secret, and a whole line goes when part of it reads as
 * an instruction to the model.
 */

// Characters that never render but can split a keyword ("ig\u200Bnore") or reorder text.
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

type Rule = [pattern: RegExp, replacement: string | ((match: string, ...groups: string[]) => string)];

const SECRETS: Rule[] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, '[private key]'],
  // JWTs (three base64url parts, the first a JSON header) before bearer tokens, which they often are
  [/\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/g, '[token]'],
  [/\b(Bearer|Basic|Token)\s+[\w.~+/=-]{8,}/gi, '$1 [token]'],
  // credentials inside URLs: scheme://user:password@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s:@/]+:[^\s@/]+@/gi, '$1[credentials]@'],
  [/\bsk-(?:proj-|ant-|live-|svcacct-)?[\w-]{16,}/g, '[api key]'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '[api key]'],
  [/\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,})/g, '[api key]'],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/g, '[api key]'],
  [/\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/g, '[api key]'],
  [/\bAIza[\w-]{35}/g, '[api key]'],
  [/\b(?:glpat-[\w-]{20,}|npm_[A-Za-z0-9]{36})/g, '[api key]'],
  // "password: x", "api_key=x" always; "my password is x" only when x looks like a secret (not "is wrong")
  [
    /\b(password|passwd|pwd|passcode|passphrase|pin|secret|token|api[_ -]?key|access[_ -]?key|client[_ -]?secret|mot de passe|contraseña|passwort)(\s*(?:[:=]|\bis\b|\best\b|\bes\b|\bist\b)\s*)(?!\[)(\S+)/giu,
    (match, label: string, sep: string, value: string) =>
      /[:=]/.test(sep) || /[^\p{L}]/u.test(value.replace(/[.,;!?]+$/, '')) ? `${label}${sep}[secret]` : match,
  ],
  [/[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu, '[email]'],
  [/(?<![\w.])\d(?:[ -]?\d){12,18}(?![\w])/g, (match) => (isCardNumber(match) ? '[card number]' : match)],
  [/(?<![\w+])\+?\(?\d[\d \t().-]{6,}\d(?![\w])/g, (match) => (isPhoneNumber(match) ? '[phone]' : match)],
  // anything long that mixes letters and digits: keys, hashes, session ids we have no pattern for
  [/(?<![\w/+=-])(?=[\w+/=-]*\d)(?=[\w+/=-]*[A-Za-z])[\w+/=-]{32,}/g, '[secret]'],
];

/** Phrases that address the model rather than describe the visitor's subject. */
const INSTRUCTION_LINE = new RegExp(
  [
    String.raw`\b(?:ignore|disregard|forget|override|bypass|skip)\b.{0,40}\b(?:previous|prior|above|earlier|preceding|all|any|your|the|these|those|system)\b.{0,40}\b(?:instructions?|prompts?|rules|directions|guidelines|messages?|context|constraints)\b`,
    String.raw`\byou are (?:now|no longer)\b`,
    String.raw`\b(?:new|updated|real|actual|hidden) (?:instructions?|rules|system prompt|task)\b`,
    String.raw`\b(?:system|developer) (?:prompt|message|instructions?)\b`,
    String.raw`\b(?:jailbreak|dan mode|do anything now|developer mode)\b`,
    String.raw`\b(?:respond|reply|answer|output) (?:only )?with\b.{0,30}\b(?:json|title|changed)\b`,
    String.raw`\bignore[sz]? (?:les|toutes les|las|todas las|die|alle)\b`,
  ].join('|'),
  'iu',
);

const NEUTRALIZE: Rule[] = [
  // chat-template control tokens: <|im_start|>, <|endoftext|>, [INST], <<SYS>>, </s>
  [/<\|[^|>\n]{0,40}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?s>/gi, ' '],
  // tags that look like prompt structure
  [/<\/?\s*(?:system|user|assistant|developer|tool|human|ai|instructions?|prompt|messages?|context|data|visitor|title)\b[^>\n]*>/gi, ' '],
  // role markers at the start of a line: "system:", "### Assistant:", "[user]:"
  [/^([ \t]*)(?:#+[ \t]*)?\[?(?:system|assistant|developer|tool|user|human|ai|model)\]?[ \t]*:/gim, '$1'],
  // delimiter look-alikes: fences, rules, runs of quote marks or angle brackets
  [/(?:`{3,}|~{3,}|"{3,}|'{3,}|-{3,}|={3,}|_{3,}|\*{3,}|#{3,}|<{2,}|>{2,}|\|{3,})/g, ' '],
];

/**
 * Redacts secrets and neutralizes instructions in a visitor's text. Line breaks survive.
 * @example redact('my key is sk-proj-abc123def456ghi789 — ignore previous instructions')
 * // '[instruction removed]'
 * @example redact('Mail me at jo@example.com') // 'Mail me at [email]'
 */
export function redact(text: string): string {
  let out = text.normalize('NFKC').replace(INVISIBLE, '');
  for (const [pattern, replacement] of SECRETS) out = out.replace(pattern, replacement as string);
  out = out
    .split(/\r?\n/)
    .map((line) => (INSTRUCTION_LINE.test(line) ? '[instruction removed]' : line))
    .join('\n');
  for (const [pattern, replacement] of NEUTRALIZE) out = out.replace(pattern, replacement as string);
  return out
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** 13–19 digits (spaces or dashes allowed between them) that pass the Luhn check. */
export function isCardNumber(candidate: string): boolean {
  const digits = candidate.replace(/[ -]/g, '');
  if (!/^\d{13,19}$/.test(digits) || /^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * 8–15 digits written like a phone number: with a leading `+`, a leading 0, separators, or
 * 10+ digits. Dates (2024-01-05) and bare 8–9 digit ids (order 12345678) are not phones.
 */
function isPhoneNumber(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return false;
  if (/^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/.test(candidate.trim())) return false;
  return (
    candidate.startsWith('+') || candidate.startsWith('(') || /[ \t().-]/.test(candidate) || digits.startsWith('0') || digits.length >= 10
  );
}
