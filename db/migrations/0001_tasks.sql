CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`split` text NOT NULL,
	`dataset` text NOT NULL,
	`difficulty` text NOT NULL,
	`template_id` text NOT NULL,
	`question` text NOT NULL,
	`slots` text NOT NULL,
	`gold` text NOT NULL,
	`plan` text NOT NULL,
	`world_seed` text NOT NULL,
	`world_scale` real NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tasks_group` ON `tasks` (`dataset`,`difficulty`,`split`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_template` ON `tasks` (`template_id`);