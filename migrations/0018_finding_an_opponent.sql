CREATE TABLE "games" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"challenges" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leaderboard_entries" (
	"period" text NOT NULL,
	"period_start" date NOT NULL,
	"game_key" text NOT NULL,
	"user_id" integer NOT NULL,
	"played" integer DEFAULT 0 NOT NULL,
	"wins" integer DEFAULT 0 NOT NULL,
	"net_cents" bigint NOT NULL,
	CONSTRAINT "leaderboard_entries_pkey" PRIMARY KEY("period","period_start","game_key","user_id"),
	CONSTRAINT "leaderboard_entries_period_known" CHECK ("leaderboard_entries"."period" in ('week', 'month', 'all'))
);
--> statement-breakpoint
ALTER TABLE "leaderboard_entries" ADD CONSTRAINT "leaderboard_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "games_challenges_idx" ON "games" USING btree ("challenges","key");--> statement-breakpoint
CREATE INDEX "leaderboard_entries_net_idx" ON "leaderboard_entries" USING btree ("period","period_start","game_key","net_cents","wins");--> statement-breakpoint
CREATE INDEX "leaderboard_entries_wins_idx" ON "leaderboard_entries" USING btree ("period","period_start","game_key","wins","net_cents");--> statement-breakpoint
CREATE INDEX "leaderboard_entries_user_idx" ON "leaderboard_entries" USING btree ("user_id","period","game_key");--> statement-breakpoint
CREATE INDEX "challenges_status_amount_idx" ON "challenges" USING btree ("status","amount_cents","id");--> statement-breakpoint
CREATE INDEX "challenges_status_console_idx" ON "challenges" USING btree ("status","console","id");--> statement-breakpoint
CREATE INDEX "challenges_creator_results_idx" ON "challenges" USING btree ("creator_id","completed_at") WHERE status = 'completed';--> statement-breakpoint
CREATE INDEX "challenges_acceptor_results_idx" ON "challenges" USING btree ("acceptor_id","completed_at") WHERE status = 'completed';--> statement-breakpoint
-- Written by hand below this line (decision 17): the triggers that keep the leaderboards and the
-- games players name. Every change of a challenge's status passes through them, whichever
-- function or admin decision makes it, in the same transaction.
CREATE FUNCTION leaderboard_apply(c challenges, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO leaderboard_entries AS e (period, period_start, game_key, user_id, played, wins, net_cents)
  SELECT p.period, p.period_start, g.game_key, pl.user_id, sign, sign * pl.won, sign * pl.net
  FROM (VALUES
      ('week', date_trunc('week', coalesce(c.completed_at, c.updated_at) AT TIME ZONE 'UTC')::date),
      ('month', date_trunc('month', coalesce(c.completed_at, c.updated_at) AT TIME ZONE 'UTC')::date),
      ('all', DATE '1970-01-01')) AS p(period, period_start),
    (VALUES (''), (lower(btrim(c.game)))) AS g(game_key),
    (VALUES
      (c.winner_id, 1,
        coalesce(c.prize_cents, 2 * c.amount_cents) - coalesce(c.fee_cents, 0) - c.amount_cents),
      (CASE WHEN c.winner_id = c.creator_id THEN c.acceptor_id ELSE c.creator_id END, 0,
        -c.amount_cents)) AS pl(user_id, won, net)
  -- One order for every writer, so two settlements of the same players never deadlock.
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (period, period_start, game_key, user_id) DO UPDATE SET
    played = e.played + excluded.played,
    wins = e.wins + excluded.wins,
    net_cents = e.net_cents + excluded.net_cents
$$;
--> statement-breakpoint
-- A challenge counts while it is completed: settling adds it; a dispute, a refund or another
-- winner takes the old result back out before the new one (if any) goes in.
CREATE FUNCTION challenges_keep_leaderboards() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'completed' AND OLD.winner_id IS NOT NULL AND OLD.acceptor_id IS NOT NULL THEN
    PERFORM leaderboard_apply(OLD, -1);
  END IF;
  IF NEW.status = 'completed' AND NEW.winner_id IS NOT NULL AND NEW.acceptor_id IS NOT NULL THEN
    PERFORM leaderboard_apply(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER challenges_keep_leaderboards
  AFTER UPDATE OF status, winner_id, completed_at, prize_cents, fee_cents ON challenges
  FOR EACH ROW
  WHEN ((OLD.status = 'completed' OR NEW.status = 'completed')
    AND (OLD.status, OLD.winner_id, OLD.completed_at, OLD.prize_cents, OLD.fee_cents)
      IS DISTINCT FROM (NEW.status, NEW.winner_id, NEW.completed_at, NEW.prize_cents, NEW.fee_cents))
  EXECUTE FUNCTION challenges_keep_leaderboards();
--> statement-breakpoint
-- Once per statement, over the rows it inserted: a bulk insert updates each game's row once.
CREATE FUNCTION challenges_count_games() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO games AS g (key, name, challenges)
    SELECT lower(btrim(game)), max(btrim(game)), count(*) FROM inserted GROUP BY 1 ORDER BY 1
  ON CONFLICT (key) DO UPDATE SET name = excluded.name, challenges = g.challenges + excluded.challenges;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER challenges_count_games AFTER INSERT ON challenges
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION challenges_count_games();
--> statement-breakpoint
INSERT INTO games (key, name, challenges)
  SELECT lower(btrim(game)), max(btrim(game)), count(*) FROM challenges GROUP BY 1;
--> statement-breakpoint
SELECT leaderboard_apply(c, 1) FROM challenges c
  WHERE c.status = 'completed' AND c.winner_id IS NOT NULL AND c.acceptor_id IS NOT NULL;
