-- Each sentence take's entry keeps the sentence's own keyed hash (libs/cache-keys `sentenceTextKey`), so an org
-- can evict every entry of one sentence, whatever it was said with. Entries from before have none.
-- AlterTable
ALTER TABLE "cache_entries" ADD COLUMN     "text_key" TEXT;

-- CreateIndex
CREATE INDEX "cache_entries_org_id_text_key_idx" ON "cache_entries"("org_id", "text_key");
