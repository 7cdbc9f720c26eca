import type { AttachMessages } from '../en.ts';

type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
const rules = new Intl.PluralRules('ar');
/** Arabic counts take one of six forms (one, two, few 3–10, many 11–99, other); `#` is the count. */
const plural = (n: number, forms: Forms) => (forms[rules.select(n)] ?? forms.other).replace('#', String(n));

/** Arabic strings of attachments (Modern Standard, as `i18n/locales/ar.ts`). */
export default {
  filesToSend: 'ملفات للإرسال',
  uploading: (name) => `جارٍ رفع ${name}`,
  ready: (name) => `${name} جاهز للإرسال`,
  remove: (name) => `إزالة ${name}`,
  retryUpload: (name) => `إعادة محاولة رفع ${name}`,
  sendWhenUploaded: 'سيتم الإرسال بعد اكتمال رفع الملفات…',
  dropFiles: 'أفلت الملفات هنا لإرفاقها',
  tooLarge: (name, size, limit) => `حجم ${name} هو ${size}، والحد الأقصى لحجم الملف ${limit}.`,
  messageTooLarge: (name, limit) => `تعذّر إرفاق ${name}: الحد الأقصى لمجموع أحجام ملفات الرسالة الواحدة ${limit}.`,
  tooMany: (name, n) =>
    `تعذّر إرفاق ${name}: يمكن أن تحمل الرسالة الواحدة ${plural(n, { one: 'ملفًا واحدًا', two: 'ملفين', few: '# ملفات', many: '# ملفًا', other: '# ملف' })} كحد أقصى.`,
  typeRefused: (name, why) => `تعذّر إرفاق ${name}: ${why}.`,
  images: (label) => `صور ${label} غير مقبولة`,
  files: (label) => `ملفات ${label} غير مقبولة`,
  thisType: 'هذا النوع من الملفات غير مقبول',
  canAttach: (list) => `يمكنك إرفاق ملفات ${list}.`,
  text: 'نص',
  textFile: 'ملف نصي',
  damaged: (name) => `تعذّر إرفاق ${name}: الملف تالف.`,
  empty: (name) => `تعذّر إرفاق ${name}: الملف فارغ.`,
  off: (name) => `تعذّر إرفاق ${name}: هذا الموقع لا يقبل الملفات.`,
  failed: (name) => `تعذّر رفع ${name}.`,
  rateLimited: (name, seconds) =>
    `عمليات رفع كثيرة في وقت واحد: ستُعاد محاولة رفع ${name} بعد ${plural(seconds, { one: 'ثانية واحدة', two: 'ثانيتين', few: '# ثوانٍ', many: '# ثانية', other: '# ثانية' })}.`,
  waiting: 'في انتظار إعادة المحاولة…',
  enlarge: (name) => `تكبير ${name}`,
  close: 'إغلاق',
} satisfies AttachMessages;
