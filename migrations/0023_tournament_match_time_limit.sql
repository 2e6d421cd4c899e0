CREATE INDEX "tournament_matches_unplayed_idx" ON "tournament_matches" USING btree ("ready_at") WHERE status = 'playing' or (status = 'disputed' and no_show_claimed_by is not null);--> statement-breakpoint
-- Written by hand: a match already in play when the time limit arrives gets the limit's whole
-- length from this release on, rather than being decided at the worker's first pass by a limit
-- its players were never told of.
UPDATE "tournament_matches" SET "ready_at" = now()
  WHERE "ready_at" IS NOT NULL
    AND ("status" = 'playing' OR ("status" = 'disputed' AND "no_show_claimed_by" IS NOT NULL));
