import { defineConfig } from 'prisma/config';

// `env('DATABASE_URL')` would throw on a clean checkout during `prisma generate`,
// which needs no database; an empty string keeps generation working.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
