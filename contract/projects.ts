import { Schema } from 'effect';
import { nameTextChecks, TEXT_LIMITS } from './text-rules';
import { Id, IdFromString, PersonFields, userId } from './common';

// The slug rules live in project-slug.ts (no schema library); named here as well for the server's imports.
export { projectIdFromSlug, projectSlug } from './project-slug';

// Projects and their members (spec 000 §2 Project Settings, §3 Project, §5, §7 Projects).

export const MAX_PROJECT_PAGE = 200;
export const PROJECT_NAME_MESSAGE = 'The project name must have at least 3 characters';
export const SELECT_ONE_USER = 'Please select one user.';
export const PROJECT_NAME_MISMATCH = 'Project name does not match';

export const Project = Schema.Struct({
  id: Schema.Number,
  name: Schema.String,
  organization_id: Schema.NullOr(Schema.Number),
  user_id: Schema.String,
  billing_account_id: Schema.NullOr(Schema.Number),
  slug: Schema.String,
  /** The current user may delete it (spec: the project owner). */
  owner: Schema.Boolean,
});
export type Project = typeof Project.Type;
export const ProjectList = Schema.Array(Project);

/** GET projects/?limit=&offset= : a page of the visible projects, by id (without them, every visible project). */
export const ProjectPageQuery = Schema.Struct({
  limit: Schema.optionalKey(IdFromString.pipe(Schema.check(Schema.isLessThanOrEqualTo(MAX_PROJECT_PAGE, { message: `At most ${MAX_PROJECT_PAGE} projects per page` })))),
  offset: Schema.optionalKey(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt({ message: 'Must be a whole number' }), Schema.isGreaterThanOrEqualTo(0, { message: 'Must be 0 or more' }))),
  ),
});
export type ProjectPageQuery = typeof ProjectPageQuery.Type;

export const PROJECT_LIMIT_MESSAGE = 'Project limit reached';
export const projectLimitDescription = (limit: number) =>
  `This account already has ${limit} projects, the most one account may have. Delete a project you no longer need to create another.`;

/** POST projects/ */
export const CreateProjectBody = Schema.Struct({
  name: Schema.Trim.pipe(
    Schema.check(Schema.isMinLength(3, { message: PROJECT_NAME_MESSAGE }), ...nameTextChecks(TEXT_LIMITS.projectName, 'The project name')),
  ).annotateKey({
    messageMissingKey: PROJECT_NAME_MESSAGE,
  }),
});
export type CreateProjectBody = typeof CreateProjectBody.Type;
export const CreateProjectResponse = Schema.Struct({ message: Schema.String, id: Schema.Number, slug: Schema.String });
export type CreateProjectResponse = typeof CreateProjectResponse.Type;

/** POST projects/users */
/** GET projects/{id}/account: the organization that holds the project (null: the caller's personal account). */
export const ProjectAccount = Schema.Struct({ organization_id: Schema.NullOr(Schema.Number) });

export const AddProjectUserBody = Schema.Struct({
  user_id: userId(SELECT_ONE_USER),
  project_id: Id.annotateKey({ messageMissingKey: 'The project id is missing' }),
});
export type AddProjectUserBody = typeof AddProjectUserBody.Type;

/** GET projects/users?project_id */
export const ProjectUser = Schema.Struct(PersonFields);
export type ProjectUser = typeof ProjectUser.Type;
export const ProjectUserList = Schema.Array(ProjectUser);

