import type { AttachMessages } from '../en.ts';

/** French strings of attachments ("vous"; a narrow no-break space before ":" and ";", as `i18n/locales/fr.ts`). */
export default {
  filesToSend: 'Fichiers à envoyer',
  uploading: (name) => `Envoi de ${name} en cours`,
  ready: (name) => `${name} est prêt à être envoyé`,
  remove: (name) => `Retirer ${name}`,
  retryUpload: (name) => `Réessayer ${name}`,
  sendWhenUploaded: 'Envoi dès que les fichiers seront chargés…',
  dropFiles: 'Déposez des fichiers ici pour les joindre',
  tooLarge: (name, size, limit) => `${name} fait ${size}\u202f; les fichiers peuvent faire jusqu’à ${limit}.`,
  messageTooLarge: (name, limit) =>
    `${name} ne peut pas être joint\u202f: les fichiers d’un message peuvent faire jusqu’à ${limit} au total.`,
  tooMany: (name, n) =>
    `${name} ne peut pas être joint\u202f: un message peut contenir jusqu’à ${n === 1 ? 'un fichier' : `${n} fichiers`}.`,
  typeRefused: (name, why) => `${name} ne peut pas être joint\u202f: ${why}.`,
  images: (label) => `les images ${label} ne sont pas acceptées`,
  files: (label) => `les fichiers ${label} ne sont pas acceptés`,
  thisType: 'ce type de fichier n’est pas accepté',
  canAttach: (list) => `Vous pouvez joindre des fichiers ${list}.`,
  text: 'texte',
  textFile: 'Fichier texte',
  damaged: (name) => `${name} ne peut pas être joint\u202f: le fichier est endommagé.`,
  empty: (name) => `${name} ne peut pas être joint\u202f: le fichier est vide.`,
  off: (name) => `${name} ne peut pas être joint\u202f: ce site n’accepte pas de fichiers.`,
  failed: (name) => `${name} n’a pas pu être envoyé.`,
  rateLimited: (name, seconds) =>
    `Trop d’envois à la fois\u202f: nouvel essai pour ${name} dans ${seconds <= 1 ? `${seconds} seconde` : `${seconds} secondes`}.`,
  waiting: 'En attente d’un nouvel essai…',
  enlarge: (name) => `Agrandir ${name}`,
  close: 'Fermer',
} satisfies AttachMessages;
