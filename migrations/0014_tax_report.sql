-- The admin's tax report (DESIGN §11) reads one calendar year of the transfers that credit a
-- winner. IF NOT EXISTS lets an operator with a large ledger build it beforehand without blocking
-- money movements: CREATE INDEX CONCURRENTLY with this name and definition (decision 16).
CREATE INDEX IF NOT EXISTS "ledger_transfers_prize_credits_idx" ON "ledger_transfers" USING btree ("created_at") WHERE reference_type = 'challenge' and kind in ('settlement', 'review_release');
