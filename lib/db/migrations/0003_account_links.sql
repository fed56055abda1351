CREATE TABLE "account_links" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"handle_hash" text NOT NULL,
	"checkout_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"bank_id" text NOT NULL,
	"provider_link_id" text,
	"scopes" jsonb NOT NULL,
	"access_token" text,
	"access_expires_at" timestamp with time zone,
	"refresh_token" text,
	"expires_at" timestamp with time zone,
	"failure_reason" text,
	"last_used_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_links_one_active_idx" ON "account_links" USING btree ("customer_id","handle_hash") WHERE "account_links"."status" = 'active';