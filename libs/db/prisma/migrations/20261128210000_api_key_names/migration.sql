-- API keys get a name the org chooses and an optional expiry, after which the gateway refuses the key like a
-- revoked one (docs/architecture.md, The dashboard).
-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "name" TEXT NOT NULL DEFAULT '';
