-- Per-org limits, read by the gateway with the org's record; null: the configured default (ORG_LIMIT_*).
ALTER TABLE "orgs" ADD COLUMN "limit_concurrent_syntheses" INTEGER,
ADD COLUMN "limit_open_sockets" INTEGER,
ADD COLUMN "limit_requests_per_second" INTEGER;
