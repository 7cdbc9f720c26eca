-- CreateTable
CREATE TABLE "ModelFinding" (
    "baseUrl" VARCHAR(300) NOT NULL,
    "model" VARCHAR(100) NOT NULL,
    "flag" VARCHAR(40) NOT NULL,
    "providerMessage" VARCHAR(500),
    "learnedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ModelFinding_pkey" PRIMARY KEY ("baseUrl","model","flag")
);
