-- A payment link's Idempotency-Key was kept as "<created_by>:<key>", one scope per API key, so a
-- retry after the key was rolled made a second link. Keys are the merchant's, as a checkout's are
-- (ADR 32): the prefix goes. Where two API keys sent one key, the first link keeps it and the later
-- ones keep the prefixed form, which no request names any more.
UPDATE "payment_links" AS l SET "idempotency_key" = substr(l."idempotency_key", length(l."created_by") + 2)
WHERE left(l."idempotency_key", length(l."created_by") + 1) = l."created_by" || ':'
  AND NOT EXISTS (
    SELECT 1 FROM "payment_links" AS o
    WHERE o."id" <> l."id"
      AND (
        o."idempotency_key" = substr(l."idempotency_key", length(l."created_by") + 2)
        OR (
          left(o."idempotency_key", length(o."created_by") + 1) = o."created_by" || ':'
          AND substr(o."idempotency_key", length(o."created_by") + 2) = substr(l."idempotency_key", length(l."created_by") + 2)
          AND (o."created_at", o."id") < (l."created_at", l."id")
        )
      )
  );
