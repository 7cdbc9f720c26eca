import type { AttachMessages } from '../en.ts';

/** Portuguese strings of attachments (Brazilian, "você", as `i18n/locales/pt.ts`). */
export default {
  filesToSend: 'Arquivos para enviar',
  uploading: (name) => `Enviando ${name}`,
  ready: (name) => `${name} está pronto para enviar`,
  remove: (name) => `Remover ${name}`,
  retryUpload: (name) => `Tentar ${name} novamente`,
  sendWhenUploaded: 'Será enviada quando os arquivos terminarem de carregar…',
  dropFiles: 'Solte arquivos aqui para anexá-los',
  tooLarge: (name, size, limit) => `${name} tem ${size}; os arquivos podem ter até ${limit}.`,
  messageTooLarge: (name, limit) => `Não é possível anexar ${name}: os arquivos de uma mensagem podem ter até ${limit} no total.`,
  tooMany: (name, n) => `Não é possível anexar ${name}: uma mensagem pode levar até ${n === 1 ? '1 arquivo' : `${n} arquivos`}.`,
  typeRefused: (name, why) => `Não é possível anexar ${name}: ${why}.`,
  images: (label) => `imagens ${label} não são aceitas`,
  files: (label) => `arquivos ${label} não são aceitos`,
  thisType: 'este tipo de arquivo não é aceito',
  canAttach: (list) => `Você pode anexar arquivos ${list}.`,
  text: 'texto',
  textFile: 'Arquivo de texto',
  damaged: (name) => `Não é possível anexar ${name}: o arquivo está danificado.`,
  empty: (name) => `Não é possível anexar ${name}: o arquivo está vazio.`,
  off: (name) => `Não é possível anexar ${name}: este site não aceita arquivos.`,
  failed: (name) => `Não foi possível enviar ${name}.`,
  rateLimited: (name, seconds) =>
    `Muitos envios ao mesmo tempo: ${name} será enviado novamente em ${seconds === 1 ? '1 segundo' : `${seconds} segundos`}.`,
  waiting: 'Aguardando para tentar novamente…',
  enlarge: (name) => `Ampliar ${name}`,
  close: 'Fechar',
} satisfies AttachMessages;
