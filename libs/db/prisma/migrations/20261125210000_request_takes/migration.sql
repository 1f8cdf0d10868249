-- A whole-request take's status and kept response headers, replayed with its body (docs/architecture.md).
-- AlterTable
ALTER TABLE "cache_entries" ADD COLUMN     "response_head" JSONB;
