-- Takes beside characters in the usage counters: the dashboard's share of sentences served from cache.
-- AlterTable
ALTER TABLE "usage_counters" ADD COLUMN     "served_from_cache_takes" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "synthesized_takes" BIGINT NOT NULL DEFAULT 0;

