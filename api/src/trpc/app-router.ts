import { router } from './trpc.ts';
import { sessionRouter } from './routers/session.ts';
import { conversationRouter } from './routers/conversation.ts';
import { messageRouter } from './routers/message.ts';
import { eventsRouter } from './routers/events.ts';
import { adminRouter } from './routers/admin.ts';
import { consoleRouter } from './routers/console/index.ts';
import { intentRouter } from './routers/intent.ts';
import { visitorRouter } from './routers/visitor.ts';

/** The API served at /trpc: the visitor API, `admin` for automation (bearer ADMIN_TOKEN) and `console` for the operator console (session cookie). The widget imports only this type. */
export const appRouter = router({
  session: sessionRouter,
  conversation: conversationRouter,
  message: messageRouter,
  events: eventsRouter,
  admin: adminRouter,
  console: consoleRouter,
  intent: intentRouter,
  visitor: visitorRouter,
});

export type AppRouter = typeof appRouter;
