CREATE TABLE `preference_pairs` (
	`id` text PRIMARY KEY NOT NULL,
	`tree_id` text NOT NULL,
	`exploration_id` text NOT NULL,
	`task_id` text NOT NULL,
	`dataset` text NOT NULL,
	`surface_id` text NOT NULL,
	`prompt_surface_id` text NOT NULL,
	`parent_node` integer NOT NULL,
	`chosen_node` integer NOT NULL,
	`rejected_node` integer NOT NULL,
	`record` text NOT NULL,
	`model` text NOT NULL,
	`seed` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `preference_pairs_exploration` ON `preference_pairs` (`exploration_id`,`id`);