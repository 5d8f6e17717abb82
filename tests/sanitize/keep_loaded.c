/* Preloaded into the test runs of the sanitizer build (tests/CMakeLists.txt):
 * a dlclose that keeps every library loaded. Open MPI unloads its components
 * at MPI_Finalize, so the stacks of what they keep past it point into
 * unmapped code; LeakSanitizer then rereads /proc/self/maps for every such
 * frame while it matches its suppressions, 3 of a run's 4 seconds. */
int dlclose(void *handle);

int dlclose(void *handle)
{
  (void)handle;
  return 0;
}
