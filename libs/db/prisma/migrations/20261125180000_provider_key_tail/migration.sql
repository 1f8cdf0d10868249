-- `last4` shows a key's last four characters but never more than half of it, rounded down (docs/architecture.md,
-- provider keys); it used to show a key of four characters or fewer whole. A stored key's length is its
-- ciphertext's (AES-GCM adds no padding) in UTF-8 bytes, which are its characters for the printable ASCII
-- keys the router takes. A tail that is not printable ASCII belongs to a key the router now refuses, whose
-- length in characters its bytes do not give: it shows nothing.
UPDATE "provider_keys"
SET "last4" = CASE
  WHEN "last4" !~ '^[!-~]*$' THEN ''
  ELSE right("last4", LEAST(4, octet_length("ciphertext") / 2))
END
WHERE octet_length("ciphertext") < 8 OR "last4" !~ '^[!-~]*$';
