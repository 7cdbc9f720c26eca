import type { AttachMessages } from '../en.ts';

/** German strings of attachments (formal "Sie", as `i18n/locales/de.ts`). */
export default {
  filesToSend: 'Zu sendende Dateien',
  uploading: (name) => `${name} wird hochgeladen`,
  ready: (name) => `${name} ist bereit zum Senden`,
  remove: (name) => `${name} entfernen`,
  retryUpload: (name) => `${name} erneut versuchen`,
  sendWhenUploaded: 'Wird gesendet, sobald die Dateien hochgeladen sind…',
  dropFiles: 'Dateien hier ablegen, um sie anzuhängen',
  tooLarge: (name, size, limit) => `${name} ist ${size} groß; Dateien dürfen höchstens ${limit} groß sein.`,
  messageTooLarge: (name, limit) =>
    `${name} kann nicht angehängt werden: Die Dateien einer Nachricht dürfen zusammen höchstens ${limit} groß sein.`,
  tooMany: (name, n) =>
    `${name} kann nicht angehängt werden: Eine Nachricht kann höchstens ${n === 1 ? 'eine Datei' : `${n} Dateien`} enthalten.`,
  typeRefused: (name, why) => `${name} kann nicht angehängt werden: ${why}.`,
  images: (label) => `${label}-Bilder werden nicht angenommen`,
  files: (label) => `${label}-Dateien werden nicht angenommen`,
  thisType: 'Dateien dieses Typs werden nicht angenommen',
  canAttach: (list) => `Angehängt werden können: ${list}.`,
  text: 'Text',
  textFile: 'Textdatei',
  damaged: (name) => `${name} kann nicht angehängt werden: Die Datei ist beschädigt.`,
  empty: (name) => `${name} kann nicht angehängt werden: Die Datei ist leer.`,
  off: (name) => `${name} kann nicht angehängt werden: Diese Website nimmt keine Dateien an.`,
  failed: (name) => `${name} konnte nicht hochgeladen werden.`,
  rateLimited: (name, seconds) =>
    `Zu viele Uploads auf einmal: ${name} wird in ${seconds === 1 ? 'einer Sekunde' : `${seconds} Sekunden`} erneut versucht.`,
  waiting: 'Wartet auf einen neuen Versuch…',
  enlarge: (name) => `${name} vergrößern`,
  close: 'Schließen',
} satisfies AttachMessages;
