-- Which worker leases each shard of the cache keys (it claims the shard's keys without a round trip) and
-- which workers are alive, per deployment (workers sharing a NATS subject prefix); see TakeLease and
-- SynthesisWorkerBeat.
-- CreateTable
CREATE TABLE "take_leases" (
    "lease_group" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "worker_id" TEXT,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "take_leases_pkey" PRIMARY KEY ("lease_group","shard")
);

-- CreateTable
CREATE TABLE "synthesis_workers" (
    "worker_id" TEXT NOT NULL,
    "lease_group" TEXT NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "synthesis_workers_pkey" PRIMARY KEY ("worker_id")
);
