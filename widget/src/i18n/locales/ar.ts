import type { Messages } from '../en.ts';

type Forms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
const rules = new Intl.PluralRules('ar');
/** Arabic counts take one of six forms (one, two, few 3–10, many 11–99, other); `#` is the count. */
const plural = (n: number, forms: Forms) => (forms[rules.select(n)] ?? forms.other).replace('#', String(n));

/** Arabic (Modern Standard; right to left, which the widget mirrors for). */
export default {
  openChat: 'فتح المحادثة',
  closeChat: 'إغلاق المحادثة',
  liveChats: (n) => plural(n, { one: 'محادثة مباشرة واحدة', two: 'محادثتان مباشرتان', few: '# محادثات مباشرة', other: '# محادثة مباشرة' }),
  needInput: (n) => plural(n, { one: 'محادثة واحدة بانتظار ردّك', two: 'محادثتان بانتظار ردّك', few: '# محادثات بانتظار ردّك', other: '# محادثة بانتظار ردّك' }),
  newResponses: (n) => plural(n, { one: 'ردّ جديد واحد', two: 'ردّان جديدان', few: '# ردود جديدة', many: '# ردًّا جديدًا', other: '# ردّ جديد' }),
  chat: 'المحادثة',
  newConversation: 'محادثة جديدة',
  showConversations: 'عرض المحادثات',
  home: 'الرئيسية',
  close: 'إغلاق',
  writeMessage: 'اكتب رسالة…',
  typeAnswer: 'اكتب إجابتك…',
  status: {
    connecting: 'جارٍ الاتصال…',
    connected: 'متصل',
    reconnecting: 'جارٍ إعادة الاتصال…',
    offline: 'غير متصل',
    sign_in_needed: 'يلزم تسجيل الدخول',
  },
  conversationTitle: 'عنوان المحادثة',
  rename: 'إعادة تسمية المحادثة',
  conversations: 'المحادثات',
  expandSidebar: 'توسيع الشريط الجانبي',
  collapseSidebar: 'طي الشريط الجانبي',
  live: 'مباشر',
  inputNeeded: 'بانتظار ردّك',
  newResponse: 'ردّ جديد',
  comma: '، ',
  needsAttention: 'بحاجة إلى انتباهك',
  caughtUp: 'لا شيء بانتظارك الآن.',
  start: 'بدء محادثة',
  replyFailed: 'تعذّر الرد',
  retry: 'إعادة المحاولة',
  liveReplies: (n) =>
    plural(n, {
      one: 'محادثة مباشرة واحدة تتلقى ردودًا',
      two: 'محادثتان مباشرتان تتلقيان ردودًا',
      few: '# محادثات مباشرة تتلقى ردودًا',
      other: '# محادثة مباشرة تتلقى ردودًا',
    }),
  openTasks: (n) => `المهام المفتوحة (${n})`,
  loading: 'جارٍ التحميل…',
  emptyThread: 'اسأل عن أي شيء، وستظهر الردود هنا.',
  replying: 'جارٍ الرد',
  sending: 'جارٍ الإرسال…',
  sendingInS: (n) => `سيُرسل بعد ${n} ث`,
  sendingInMin: (n) => `سيُرسل بعد ${n} د`,
  notSent: 'لم تُرسل',
  choices: 'الخيارات',
  answerBelow: 'اكتب إجابتك في الأسفل: رسالتك التالية هي الإجابة عن هذا السؤال.',
  orAnswerBelow: 'أو اكتب إجابتك في الأسفل: رسالتك التالية هي الإجابة عن هذا السؤال.',
  message: 'الرسالة',
  send: 'إرسال',
} satisfies Messages;
