CREATE TABLE "notify_secrets" (
	"id" text PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"prefix" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone
);
