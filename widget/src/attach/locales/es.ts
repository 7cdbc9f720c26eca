import type { AttachMessages } from '../en.ts';

/** Spanish strings of attachments (neutral, "tú", as `i18n/locales/es.ts`). */
export default {
  filesToSend: 'Archivos para enviar',
  uploading: (name) => `Subiendo ${name}`,
  ready: (name) => `${name} está listo para enviar`,
  remove: (name) => `Quitar ${name}`,
  retryUpload: (name) => `Reintentar ${name}`,
  sendWhenUploaded: 'Se enviará cuando terminen de subirse los archivos…',
  dropFiles: 'Suelta archivos aquí para adjuntarlos',
  tooLarge: (name, size, limit) => `${name} ocupa ${size}; los archivos pueden ocupar hasta ${limit}.`,
  messageTooLarge: (name, limit) => `No se puede adjuntar ${name}: los archivos de un mensaje pueden ocupar hasta ${limit} en total.`,
  tooMany: (name, n) => `No se puede adjuntar ${name}: un mensaje puede llevar hasta ${n === 1 ? '1 archivo' : `${n} archivos`}.`,
  typeRefused: (name, why) => `No se puede adjuntar ${name}: ${why}.`,
  images: (label) => `no se aceptan imágenes ${label}`,
  files: (label) => `no se aceptan archivos ${label}`,
  thisType: 'no se acepta este tipo de archivo',
  canAttach: (list) => `Puedes adjuntar archivos ${list}.`,
  text: 'texto',
  textFile: 'Archivo de texto',
  damaged: (name) => `No se puede adjuntar ${name}: el archivo está dañado.`,
  empty: (name) => `No se puede adjuntar ${name}: el archivo está vacío.`,
  off: (name) => `No se puede adjuntar ${name}: este sitio no acepta archivos.`,
  failed: (name) => `No se pudo subir ${name}.`,
  rateLimited: (name, seconds) =>
    `Demasiadas subidas a la vez: se volverá a intentar ${name} en ${seconds === 1 ? '1 segundo' : `${seconds} segundos`}.`,
  waiting: 'Esperando para volver a intentarlo…',
  enlarge: (name) => `Ampliar ${name}`,
  close: 'Cerrar',
} satisfies AttachMessages;
