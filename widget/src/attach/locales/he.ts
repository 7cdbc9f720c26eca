import type { AttachMessages } from '../en.ts';

/** Hebrew strings of attachments (plural imperative, gender-neutral, as `i18n/locales/he.ts`). */
export default {
  filesToSend: 'קבצים לשליחה',
  uploading: (name) => `${name} בהעלאה`,
  ready: (name) => `${name} מוכן לשליחה`,
  remove: (name) => `הסרת ${name}`,
  retryUpload: (name) => `ניסיון חוזר עבור ${name}`,
  sendWhenUploaded: 'ההודעה תישלח כשהעלאת הקבצים תסתיים…',
  dropFiles: 'שחררו כאן קבצים כדי לצרף אותם',
  tooLarge: (name, size, limit) => `הגודל של ${name} הוא ${size}; גודל קובץ מרבי הוא ${limit}.`,
  messageTooLarge: (name, limit) => `לא ניתן לצרף את ${name}: הגודל הכולל של הקבצים בהודעה אחת הוא עד ${limit}.`,
  tooMany: (name, n) => `לא ניתן לצרף את ${name}: אפשר לצרף עד ${n === 1 ? 'קובץ אחד' : `${n} קבצים`} להודעה אחת.`,
  typeRefused: (name, why) => `לא ניתן לצרף את ${name}: ${why}.`,
  images: (label) => `תמונות ${label} אינן נתמכות`,
  files: (label) => `קובצי ${label} אינם נתמכים`,
  thisType: 'סוג הקובץ הזה אינו נתמך',
  canAttach: (list) => `אפשר לצרף קובצי ${list}.`,
  text: 'טקסט',
  textFile: 'קובץ טקסט',
  damaged: (name) => `לא ניתן לצרף את ${name}: הקובץ פגום.`,
  empty: (name) => `לא ניתן לצרף את ${name}: הקובץ ריק.`,
  off: (name) => `לא ניתן לצרף את ${name}: האתר הזה אינו מקבל קבצים.`,
  failed: (name) => `לא ניתן היה להעלות את ${name}.`,
  rateLimited: (name, seconds) =>
    `יותר מדי העלאות בבת אחת: ניסיון חוזר עבור ${name} בעוד ${seconds === 1 ? 'שנייה אחת' : `${seconds} שניות`}.`,
  waiting: 'ממתין לניסיון חוזר…',
  enlarge: (name) => `הגדלת ${name}`,
  close: 'סגירה',
} satisfies AttachMessages;
