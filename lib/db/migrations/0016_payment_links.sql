CREATE TABLE "payment_links" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"currency" text NOT NULL,
	"amount" numeric,
	"min_amount" numeric,
	"max_amount" numeric,
	"suggested_amount" numeric,
	"reference_prefix" text NOT NULL,
	"payer_field_label" text,
	"payer_field_required" boolean DEFAULT false NOT NULL,
	"return_url" text,
	"notify_url" text,
	"ends_at" timestamp with time zone,
	"max_payments" integer,
	"deactivated_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_links_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "payment_link_id" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_payment_link_id_payment_links_id_fk" FOREIGN KEY ("payment_link_id") REFERENCES "public"."payment_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkouts_payment_link_idx" ON "checkouts" USING btree ("payment_link_id","created_at");