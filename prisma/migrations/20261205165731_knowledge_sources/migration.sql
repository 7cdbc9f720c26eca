-- Site knowledge: sources, their pages and the excerpts retrieval searches.
-- CreateTable
CREATE TABLE "KnowledgeSource" (
    "id" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "url" VARCHAR(2000) NOT NULL,
    "syncEveryHours" INTEGER NOT NULL DEFAULT 24,
    "nextSyncAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "syncFence" INTEGER NOT NULL DEFAULT 0,
    "syncLeaseUntil" TIMESTAMPTZ(3),
    "lastSyncAt" TIMESTAMPTZ(3),
    "lastError" VARCHAR(300),
    "pageErrors" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KnowledgeSource_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgePage" (
    "id" UUID NOT NULL,
    "sourceId" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "url" VARCHAR(2000) NOT NULL,
    "title" VARCHAR(300) NOT NULL,
    "etag" VARCHAR(300),
    "lastModified" VARCHAR(100),
    "fetchedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KnowledgePage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeExcerpt" (
    "id" UUID NOT NULL,
    "pageId" UUID NOT NULL,
    "siteId" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "heading" VARCHAR(300) NOT NULL,
    "text" TEXT NOT NULL,
    -- Hand-edited: a STORED generated column (Prisma writes it as a default)
    "search" tsvector GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, (heading)::text), 'A'::"char") || to_tsvector('simple'::regconfig, text)) STORED,

    CONSTRAINT "KnowledgeExcerpt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "KnowledgeSource_nextSyncAt_idx" ON "KnowledgeSource"("nextSyncAt");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgeSource_siteId_url_key" ON "KnowledgeSource"("siteId", "url");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgePage_sourceId_url_key" ON "KnowledgePage"("sourceId", "url");

-- CreateIndex
CREATE INDEX "KnowledgeExcerpt_siteId_search_idx" ON "KnowledgeExcerpt" USING GIN ("siteId" uuid_ops, "search");

-- CreateIndex
CREATE INDEX "KnowledgeExcerpt_pageId_position_idx" ON "KnowledgeExcerpt"("pageId", "position");

-- AddForeignKey
ALTER TABLE "KnowledgeSource" ADD CONSTRAINT "KnowledgeSource_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "Site"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgePage" ADD CONSTRAINT "KnowledgePage_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "KnowledgeSource"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeExcerpt" ADD CONSTRAINT "KnowledgeExcerpt_pageId_fkey" FOREIGN KEY ("pageId") REFERENCES "KnowledgePage"("id") ON DELETE CASCADE ON UPDATE CASCADE;
