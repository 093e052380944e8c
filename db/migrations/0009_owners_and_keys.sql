CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`secret_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`rate_per_minute` integer,
	`rate_burst` integer,
	`model_call_quota` integer,
	`model_calls_used` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_secret` ON `api_keys` (`secret_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_created` ON `api_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`task_id` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_owner` ON `sessions` (`owner_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `evals` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `evals` ADD `stopped_for` text;--> statement-breakpoint
ALTER TABLE `explorations` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `explorations` ADD `stopped_for` text;--> statement-breakpoint
ALTER TABLE `schedules` ADD `owner_id` text;