CREATE TABLE `cron_ticks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cron` text NOT NULL,
	`scheduled_time` integer NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`summary` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cron_ticks_due` ON `cron_ticks` (`cron`,`scheduled_time`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`payload` text NOT NULL,
	`result` text,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `jobs_kind_status` ON `jobs` (`kind`,`status`);--> statement-breakpoint
CREATE INDEX `jobs_created` ON `jobs` (`created_at`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
