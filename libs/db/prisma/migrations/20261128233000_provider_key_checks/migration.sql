-- A vendor key's last test and last error (the dashboard's vendor-key table).
ALTER TABLE "provider_keys" ADD COLUMN "checked_at" TIMESTAMPTZ(3);
ALTER TABLE "provider_keys" ADD COLUMN "last_error_code" TEXT;
ALTER TABLE "provider_keys" ADD COLUMN "last_error_message" TEXT;
ALTER TABLE "provider_keys" ADD COLUMN "last_error_at" TIMESTAMPTZ(3);
