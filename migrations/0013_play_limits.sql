CREATE TABLE "deposit_limits" (
	"user_id" integer NOT NULL,
	"period" text NOT NULL,
	"limit_cents" bigint,
	"pending_cents" bigint,
	"pending_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_limits_pkey" PRIMARY KEY("user_id","period"),
	CONSTRAINT "deposit_limits_period_known" CHECK ("deposit_limits"."period" in ('daily', 'weekly', 'monthly')),
	CONSTRAINT "deposit_limits_positive" CHECK ("deposit_limits"."limit_cents" is null or "deposit_limits"."limit_cents" > 0),
	CONSTRAINT "deposit_limits_pending_positive" CHECK ("deposit_limits"."pending_cents" is null or "deposit_limits"."pending_cents" > 0),
	CONSTRAINT "deposit_limits_pending_has_time" CHECK ("deposit_limits"."pending_cents" is null or "deposit_limits"."pending_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "responsible_gaming_changes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "responsible_gaming_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"period" text,
	"amount_cents" bigint,
	"effective_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "responsible_gaming_changes_kind_known" CHECK ("responsible_gaming_changes"."kind" in ('limit_set', 'limit_raise_requested', 'time_out', 'self_exclusion')),
	CONSTRAINT "responsible_gaming_changes_shape" CHECK (case when "responsible_gaming_changes"."kind" in ('time_out', 'self_exclusion')
        then "responsible_gaming_changes"."ends_at" is not null and "responsible_gaming_changes"."period" is null
        else "responsible_gaming_changes"."period" is not null and "responsible_gaming_changes"."ends_at" is null end)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "play_break_kind" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "play_break_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deposit_limits" ADD CONSTRAINT "deposit_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responsible_gaming_changes" ADD CONSTRAINT "responsible_gaming_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "responsible_gaming_changes_user_idx" ON "responsible_gaming_changes" USING btree ("user_id","id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_play_break_whole" CHECK (("users"."play_break_kind" is null) = ("users"."play_break_until" is null));