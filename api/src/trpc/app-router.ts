import { router } from './trpc.ts';
import { sessionRouter } from './routers/session.ts';
import { conversationRouter } from './routers/conversation.ts';
import { messageRouter } from './routers/message.ts';
import { eventsRouter } from './routers/events.ts';

/** The visitor API served at /trpc. The widget imports only this type. */
export const appRouter = router({
  session: sessionRouter,
  conversation: conversationRouter,
  message: messageRouter,
  events: eventsRouter,
});

export type AppRouter = typeof appRouter;
