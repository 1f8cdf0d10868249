-- Which worker makes a key's take (one vendor call and one take per key across workers); see TakeClaim.
-- CreateTable
CREATE TABLE "take_claims" (
    "org_id" UUID NOT NULL,
    "cache_key" TEXT NOT NULL,
    "worker_id" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "take_claims_pkey" PRIMARY KEY ("org_id","cache_key")
);

-- CreateIndex
CREATE INDEX "take_claims_claimed_at_idx" ON "take_claims"("claimed_at");

-- AddForeignKey
ALTER TABLE "take_claims" ADD CONSTRAINT "take_claims_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

