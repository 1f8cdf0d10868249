-- Every take now has blobs of its own, `<orgId>/<cacheKey>/<takeId>.audio` (and `….words.json`), where each
-- entry used to have one pair named by its key. Entries named the old way are dropped: their blobs no longer
-- parse as the cache's, so the orphan sweep removes them, and their sentences are synthesized again.
DELETE FROM "cache_entries" WHERE "object_name" !~ '^[^/]+/[0-9a-f]{64}/[0-9]{13}-[0-9a-f]{12}\.audio$';
