CREATE TABLE "player_records" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"played" integer DEFAULT 0 NOT NULL,
	"won" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"ties_lost" integer DEFAULT 0 NOT NULL,
	"disputes_opened" integer DEFAULT 0 NOT NULL,
	"disputes_lost" integer DEFAULT 0 NOT NULL,
	"no_shows" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "player_records" ADD CONSTRAINT "player_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Written by hand below this line (decision 22): the trigger that keeps each player's record
-- (DESIGN §10), as the leaderboards are kept (decision 17). What a challenge counts is one
-- function of its row; every change of a row that counts takes out what the old row counted and
-- puts in what the new one counts, in the same transaction, whichever function or admin path
-- made it. Challenges are never deleted (nothing deletes them; the ledger and the evidence name
-- them), so there is no DELETE trigger, as there is none for the leaderboards.
--
-- What one challenge counts in the records of the players it names, creator first:
-- - played: a result that stands (completed: reported and not contested, or decided); won and
--   lost split it; ties_lost are those lost on level scores.
-- - disputes_opened: who brought it before the admins. A no-show claim is its claimant's. A
--   result reported as completed and contested afterwards (it has a review, or from before
--   reviews, a settlement `settle:{id}`) is the other player's; a report that came with its own
--   dispute reason is its reporter's; an accepted match disputed because an account was deleted
--   is nobody's.
-- - disputes_lost: a dispute someone opened that an admin decided for the player's opponent,
--   whichever side the player was on, except a no-show claim against them, which is a no-show.
-- - no_shows: a no-show claim against the player that an admin decided for the claimant.
-- - cancelled: an accepted match that ended without a result (a creator's withdrawn open
--   challenge was never a match).
--
-- The `settle:{id}` transfer is read when the trigger runs, and the ledger is append-only, so it
-- only ever appears. It is posted by challenge_record_result (0009) and challenge_report_result
-- (0010) alone, right after the update that took the challenge from accepted to completed and
-- wrote its dispute reason, which the application leaves empty on a completed result; a row
-- without a dispute reason counts the same with or without the transfer, and every later row
-- sees it. So each row counts the same when it is put in as when it is taken out. The one call
-- that would break this is none the application makes: one of those functions called by hand
-- with status 'completed', a dispute reason and no review end, whose dispute would be counted
-- as its reporter's here and as the opponent's once the transfer is there.
CREATE FUNCTION player_record_contribution(c challenges)
RETURNS TABLE (user_id integer, played integer, won integer, lost integer, ties_lost integer,
  disputes_opened integer, disputes_lost integer, no_shows integer, cancelled integer)
LANGUAGE sql STABLE AS $$
  SELECT p.user_id,
    CASE WHEN c.status = 'completed' THEN 1 ELSE 0 END,
    CASE WHEN c.status = 'completed' AND c.winner_id = p.user_id THEN 1 ELSE 0 END,
    CASE WHEN c.status = 'completed' AND c.winner_id <> p.user_id THEN 1 ELSE 0 END,
    CASE WHEN c.status = 'completed' AND c.winner_id <> p.user_id
      AND c.creator_score = c.acceptor_score THEN 1 ELSE 0 END,
    CASE WHEN j.disputer = p.user_id THEN 1 ELSE 0 END,
    CASE WHEN j.decided AND c.winner_id <> p.user_id AND j.disputer IS NOT NULL
      AND (c.no_show_claimed_by IS NULL OR c.no_show_claimed_by = p.user_id) THEN 1 ELSE 0 END,
    CASE WHEN j.decided AND c.no_show_claimed_by <> p.user_id
      AND c.winner_id = c.no_show_claimed_by THEN 1 ELSE 0 END,
    CASE WHEN c.status = 'cancelled' AND c.acceptor_id IS NOT NULL THEN 1 ELSE 0 END
  FROM (VALUES (c.creator_id), (c.acceptor_id)) AS p(user_id),
    (SELECT c.status = 'completed' AND c.release_cause = 'decided' AS decided,
      CASE
        WHEN c.no_show_claimed_by IS NOT NULL THEN c.no_show_claimed_by
        WHEN c.dispute_reason IS NULL THEN NULL
        WHEN c.review_ends_at IS NOT NULL OR EXISTS (
            SELECT 1 FROM ledger_transfers t WHERE t.idempotency_key = 'settle:' || c.id)
          THEN CASE c.submitted_by
            WHEN c.creator_id THEN c.acceptor_id
            WHEN c.acceptor_id THEN c.creator_id
          END
        ELSE c.submitted_by
      END AS disputer) AS j
  WHERE p.user_id IS NOT NULL
$$;
--> statement-breakpoint
-- The old row's count out, the new row's in (OLD is null on insert): only the players whose
-- record moved are written, in one order for every writer, so two changes of the same players
-- never deadlock.
CREATE FUNCTION challenges_keep_player_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO player_records AS r (user_id, played, won, lost, ties_lost, disputes_opened,
      disputes_lost, no_shows, cancelled)
    SELECT d.user_id, sum(d.played), sum(d.won), sum(d.lost), sum(d.ties_lost),
      sum(d.disputes_opened), sum(d.disputes_lost), sum(d.no_shows), sum(d.cancelled)
    FROM (
      SELECT * FROM player_record_contribution(NEW)
      UNION ALL
      SELECT o.user_id, -o.played, -o.won, -o.lost, -o.ties_lost, -o.disputes_opened,
        -o.disputes_lost, -o.no_shows, -o.cancelled
      FROM player_record_contribution(OLD) o
    ) d
    GROUP BY d.user_id
    HAVING (sum(d.played), sum(d.won), sum(d.lost), sum(d.ties_lost), sum(d.disputes_opened),
      sum(d.disputes_lost), sum(d.no_shows), sum(d.cancelled)) <> (0, 0, 0, 0, 0, 0, 0, 0)
    ORDER BY d.user_id
  ON CONFLICT (user_id) DO UPDATE SET
    played = r.played + excluded.played,
    won = r.won + excluded.won,
    lost = r.lost + excluded.lost,
    ties_lost = r.ties_lost + excluded.ties_lost,
    disputes_opened = r.disputes_opened + excluded.disputes_opened,
    disputes_lost = r.disputes_lost + excluded.disputes_lost,
    no_shows = r.no_shows + excluded.no_shows,
    cancelled = r.cancelled + excluded.cancelled;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A new challenge is open and counts for nothing: it counts only with another status, or with a
-- dispute of some kind already on it (rows written straight in, as benchmarks and imports do).
CREATE TRIGGER challenges_keep_player_records_on_insert AFTER INSERT ON challenges
  FOR EACH ROW
  WHEN (NEW.status <> 'open' OR NEW.dispute_reason IS NOT NULL OR NEW.no_show_claimed_by IS NOT NULL)
  EXECUTE FUNCTION challenges_keep_player_records();
--> statement-breakpoint
CREATE TRIGGER challenges_keep_player_records
  AFTER UPDATE OF id, creator_id, acceptor_id, status, winner_id, creator_score, acceptor_score,
    dispute_reason, submitted_by, review_ends_at, release_cause, no_show_claimed_by ON challenges
  FOR EACH ROW
  WHEN ((OLD.id, OLD.creator_id, OLD.acceptor_id, OLD.status, OLD.winner_id, OLD.creator_score,
      OLD.acceptor_score, OLD.dispute_reason, OLD.submitted_by, OLD.review_ends_at,
      OLD.release_cause, OLD.no_show_claimed_by)
    IS DISTINCT FROM (NEW.id, NEW.creator_id, NEW.acceptor_id, NEW.status, NEW.winner_id,
      NEW.creator_score, NEW.acceptor_score, NEW.dispute_reason, NEW.submitted_by,
      NEW.review_ends_at, NEW.release_cause, NEW.no_show_claimed_by))
  EXECUTE FUNCTION challenges_keep_player_records();
--> statement-breakpoint
INSERT INTO player_records (user_id, played, won, lost, ties_lost, disputes_opened, disputes_lost,
    no_shows, cancelled)
  SELECT r.user_id, sum(r.played), sum(r.won), sum(r.lost), sum(r.ties_lost),
    sum(r.disputes_opened), sum(r.disputes_lost), sum(r.no_shows), sum(r.cancelled)
  FROM challenges c, player_record_contribution(c) r
  GROUP BY r.user_id
  HAVING (sum(r.played), sum(r.won), sum(r.lost), sum(r.ties_lost), sum(r.disputes_opened),
    sum(r.disputes_lost), sum(r.no_shows), sum(r.cancelled)) <> (0, 0, 0, 0, 0, 0, 0, 0);
