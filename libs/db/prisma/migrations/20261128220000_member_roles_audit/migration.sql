-- Dashboard roles (an owner manages members, vendor keys, retention and the cache; a member the rest) and the
-- org's audit list (docs/architecture.md, The dashboard). Members from before roles are owners.
-- AlterTable
ALTER TABLE "members" ADD COLUMN     "role" TEXT NOT NULL DEFAULT 'owner';

-- A role is one of two (the schema cannot say so).
ALTER TABLE "members" ADD CONSTRAINT "members_role_check" CHECK ("role" IN ('owner', 'member'));

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "actor" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_org_id_created_at_idx" ON "audit_events"("org_id", "created_at");

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
