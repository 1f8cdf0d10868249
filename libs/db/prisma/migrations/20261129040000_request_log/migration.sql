-- The dashboard's request log: one row per request and per socket session, never the text.
CREATE TABLE "request_log" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "key_hash" TEXT,
    "surface" TEXT NOT NULL,
    "vendor" TEXT NOT NULL,
    "model" TEXT NOT NULL DEFAULT '',
    "voice" TEXT NOT NULL DEFAULT '',
    "chars" INTEGER NOT NULL DEFAULT 0,
    "cached_chars" INTEGER NOT NULL DEFAULT 0,
    "sentences" INTEGER NOT NULL DEFAULT 0,
    "cached_sentences" INTEGER NOT NULL DEFAULT 0,
    "first_audio_ms" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "http_status" INTEGER,
    "error_code" TEXT,

    CONSTRAINT "request_log_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "request_log_org_id_started_at_idx" ON "request_log"("org_id", "started_at");

CREATE INDEX "request_log_started_at_idx" ON "request_log"("started_at");
