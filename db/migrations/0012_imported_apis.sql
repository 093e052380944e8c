CREATE TABLE `api_queries` (
	`queryset_id` text NOT NULL,
	`idx` integer NOT NULL,
	`query` text NOT NULL,
	`gold` text NOT NULL,
	`meta` text,
	PRIMARY KEY(`queryset_id`, `idx`)
);
--> statement-breakpoint
CREATE TABLE `api_querysets` (
	`id` text PRIMARY KEY NOT NULL,
	`api_id` text NOT NULL,
	`owner_id` text,
	`name` text NOT NULL,
	`format` text NOT NULL,
	`items` integer NOT NULL,
	`warnings` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `api_querysets_api` ON `api_querysets` (`api_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `apis` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text,
	`title` text NOT NULL,
	`version` text NOT NULL,
	`format` text NOT NULL,
	`source` text NOT NULL,
	`mode` text NOT NULL,
	`seed` text NOT NULL,
	`world_size` integer NOT NULL,
	`upstream` text,
	`summary` text NOT NULL,
	`bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `apis_owner` ON `apis` (`owner_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `surfaces` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `surfaces` ADD `api_id` text;--> statement-breakpoint
CREATE INDEX `surfaces_api` ON `surfaces` (`api_id`,`created_at`);