/** Projects: the owners of access keys and intents. */
import type { StoreContext } from './context.ts';
import { ProjectExistsError } from './errors.ts';
import { projectFromRow } from './rows.ts';
import type { Project, ProjectsRepo } from './types.ts';

export function createProjectsRepo(ctx: StoreContext): ProjectsRepo {
  const { db } = ctx;

  const findByName = async (name: string): Promise<Project | undefined> => {
    const row = await db.selectFrom('projects').selectAll().where('name', '=', name).executeTakeFirst();
    return row && projectFromRow(row);
  };

  const create = async (name: string): Promise<Project> => {
    const row = await db
      .insertInto('projects')
      .values({ name, created_at: ctx.now().getTime() })
      .onConflict((oc) => oc.column('name').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new ProjectExistsError(name);
    return projectFromRow(row);
  };

  return {
    create,
    findByName,
    async findById(id) {
      const row = await db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
      return row && projectFromRow(row);
    },
    async ensure(name) {
      const existing = await findByName(name);
      if (existing) return existing;
      try {
        return await create(name);
      } catch (error) {
        // Another process created it between our read and our insert.
        if (error instanceof ProjectExistsError) return (await findByName(name))!;
        throw error;
      }
    },
  };
}
