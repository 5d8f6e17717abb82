#include "moreau/app.h"
#include "moreau/generate.h"
#include "moreau/nlgs.h"
#include "moreau/part.h"
#include "moreau/run_output.h"

const moreau_option_spec moreau_app_options[] = {
    {"-dim", "<2|3>", "2", "space dimension of the run"},
    {"-steps", "<int>", "-1", "stop after this many steps (-1: no limit)"},
    {"-t_end", "<real>", "0.5", "stop when the simulated time reaches this value"},
    {"-strain_end", "<real>", "0",
     "stop when the shear strain (Lees-Edwards or rough-wall cell) reaches this value (0: no such stop)"},
    {"-seed", "<int>", "1", "seed of every random choice (generators, sweep order)"},
    {"-particles_file", "<file>", "", "read bodies from a .csv or .h5 snapshot file instead of generating them"},
    {"-overlap_tol", "<real>", "0.01", "largest initial overlap accepted, as a fraction of the smaller radius"},
    {"-output_dir", "<dir>", "out", "directory of the time series and snapshots"},
    {"-overwrite", "<bool>", "false",
     "a new run first removes the outputs an earlier run left in -output_dir (else such a directory is refused)"},
    {"-output_every", "<int>", "20", "steps between rows of timeseries.csv"},
    {"-snapshot_every", "<int>", "250", "steps between snapshots (0: first and last only)"},
    {"-status_every", "<int>", "200", "steps between status lines on standard output (0: none)"},
    {"-error_trace", "<bool>", "false", "print the traceback of input, runtime and I/O errors too"},
    {"-checkpoint_every", "<int>", "0", "steps between checkpoints (0: none on a step schedule)"},
    {"-checkpoint_wall_interval", "<real>", "0",
     "seconds of wall time between checkpoints, decided on rank 0 for all (0: none on a time schedule)"},
    {"-checkpoint_keep", "<int>", "2", "complete checkpoints kept in <output_dir>/checkpoints (the newest)"},
    {"-restart", "<auto|file>", "",
     "continue a run from a checkpoint: auto takes the newest one under -output_dir that verifies"},
    {NULL, NULL, NULL, NULL}};

const moreau_option_spec moreau_wall_options[] = {
    {"-box", "<xlo,ylo[,zlo],xhi,yhi[,zhi]>", "",
     "fixed walls on every side of this box; with neither -box nor walls, the generator's box is walled"},
    {"-wall<i>_point", "<x,y[,z]>", "", "a point of wall i (walls are numbered from 0 without gaps)"},
    {"-wall<i>_normal", "<nx,ny[,nz]>", "", "inward normal of wall i"},
    {"-wall<i>_mode", "<fixed|velocity|force>", "fixed",
     "wall i is fixed, moves at -wall<i>_velocity, or is pushed inward by -wall<i>_force"},
    {"-wall<i>_velocity", "<vx,vy[,vz]>", "0,0,0",
     "velocity of wall i (force mode: its tangential part is imposed, its normal part starts there)"},
    {"-wall<i>_force", "<real>", "0", "force pushing wall i inward (force mode)"},
    {"-wall<i>_pressure", "<real>", "0",
     "pressure on wall i (force mode): adds pressure x the current length (2D) or area (3D) of its face, the part "
     "inside the other walls (as they move), to -wall<i>_force"},
    {"-wall<i>_load_rate", "<real>", "0",
     "force mode: force and pressure grow as 1 + rate t with the simulation time t, a loading at a constant stress "
     "or force rate (0: constant)"},
    {"-wall<i>_stop_travel", "<real>", "0",
     "the run ends (normally) once wall i has moved this far from -wall<i>_point, e.g. a stress-controlled test "
     "stopped at an axial strain (0: never)"},
    {"-wall<i>_mass", "<real>", "1", "mass of wall i (force mode)"},
    {"-wall<i>_material", "<int>", "0", "material of wall i"},
    {NULL, NULL, NULL, NULL}};

const moreau_option_spec moreau_domain_options[] = {
    {"-periodic", "<axes>", "",
     "periodic axes, e.g. x or x,z, over the box of -box or of the generator (no walls on their faces)"},
    {"-lees_edwards", "<rate>", "",
     "shear rate of Lees-Edwards images: the gradient axis' images slide along the flow axis (both become periodic)"},
    {"-lees_edwards_velocity", "<real>", "",
     "the same shear given as the velocity difference across the box (rate = it / box length along the gradient)"},
    {"-lees_edwards_axes", "<flow,gradient>", "x,y", "flow and gradient axes of the Lees-Edwards images"},
    {"-lees_edwards_profile", "<bool>", "true",
     "a new run starts with the imposed linear velocity profile added to the bodies' velocities"},
    {"-pressure", "<real>", "",
     "normal stress imposed on a periodic box: its length along -pressure_axes follows the measured stress (with "
     "-rough_walls: the pressure on the top wall)"},
    {"-pressure_axes", "<axes>", "",
     "axes whose length is pressure-controlled (default: the Lees-Edwards gradient axis, else every periodic axis)"},
    {"-barostat_mass", "<real>", "",
     "mass M of the pressure control over the bodies' total mass (1 when not given): M d2L/dt2 = A (sigma - p) for "
     "each controlled length L (A: the face area)"},
    {"-inertial_number", "<real>", "",
     "shear at the inertial number I: the Lees-Edwards rate (with -rough_walls: the top wall's velocity over the "
     "gap) is I / (d sqrt(rho / p)), d the mean diameter, rho the grain density, p -pressure"},
    {"-rough_walls", "<bool>", "false",
     "rough-wall shear cell: the box's two walls across its one non-periodic axis (the gradient) each carry a layer "
     "of glued grains; the bottom is fixed, the top moves along the first periodic axis (the flow) at "
     "-rough_velocity or at -inertial_number, pushed by -pressure"},
    {"-rough_diameter", "<real>", "", "diameter of the glued grains (default: the bodies' mean diameter)"},
    {"-rough_velocity", "<real>", "", "flow velocity of the top rough wall (instead of -inertial_number)"},
    {"-rough_shear_rate", "<real>", "",
     "shear rate of the rough cell: the top wall moves at it times the current gap (instead of -inertial_number)"},
    {NULL, NULL, NULL, NULL}};

const moreau_option_spec moreau_material_options[] = {
    {"-materials", "<int>", "1", "number of materials"},
    {"-density", "<real>", "1000", "density of every material (mass per area in 2D, per volume in 3D)"},
    {"-mu", "<real>", "0.4", "Coulomb friction coefficient of every material pair"},
    {"-e_n", "<real>", "0", "normal restitution of every pair (Moreau's mean velocity)"},
    {"-e_t", "<real>", "0", "tangential restitution of every pair"},
    {"-pair_law", "<i,j,mu,e_n,e_t,...>", "", "laws of particular material pairs, five numbers each"},
    {"-method", "<cd|md>", "cd",
     "cd: contact dynamics (rigid grains, implicit contact forces); md: the molecular-dynamics comparison (soft "
     "grains, explicit spring-dashpot forces, -md_*; dt from the stiffness unless -dt is given)"},
    {"-law", "<signorini_coulomb|cohesive|static_dynamic|rolling>", "signorini_coulomb",
     "contact law: Signorini + exact Coulomb; with cohesion; with static and dynamic friction; with rolling and "
     "torsion friction"},
    {"-cohesion", "<real>", "",
     "cohesive: largest tensile force f_c of a bond, every pair (friction threshold mu (f_n + f_c))"},
    {"-cohesion_range", "<real>", "",
     "cohesive: range d_c of a bond (binding energy f_c d_c); 0: the threshold law, a bond breaks when it opens"},
    {"-pair_cohesion", "<i,j,f_c,d_c,...>", "",
     "cohesive: f_c and d_c of particular material pairs, four numbers each"},
    {"-mu_s", "<real>", "", "static_dynamic: static friction coefficient (>= -mu, the dynamic one), every pair"},
    {"-pair_static", "<i,j,mu_s,...>", "", "static_dynamic: mu_s of particular material pairs, three numbers each"},
    {"-mu_roll", "<real>", "", "rolling: rolling torque at most mu_roll r* f_n, r* the reduced radius, every pair"},
    {"-mu_torsion", "<real>", "", "rolling: torsion torque (3D) at most mu_torsion r* f_n, every pair"},
    {"-pair_rolling", "<i,j,mu_roll,mu_torsion,...>", "",
     "rolling: mu_roll and mu_torsion of particular material pairs, four numbers each"},
    {"-md_stiffness", "<real>", "", "md (required): normal stiffness k_n, f_n = -k_n d - g_n d' for an overlap d < 0"},
    {"-md_damping", "<real>", "", "md (required): normal damping g_n"},
    {"-md_friction_damping", "<real>", "",
     "md (required): g_t of the regularized Coulomb friction f_t = -sgn(u_t) min(g_t |u_t|, mu f_n)"},
    {"-pair_md", "<i,j,k_n,g_n,g_t,...>", "", "md: k_n, g_n, g_t of particular material pairs, five numbers each"},
    {"-md_dt_factor", "<real>", "",
     "md: the time step is this times min(sqrt(m / k_n), m / g_n, m / g_t) over the lightest body and the stiffest "
     "pair, when -dt is not given (0.1 when not given: about a twentieth of a collision)"},
    {NULL, NULL, NULL, NULL}};

moreau_err moreau_app_register_options(void)
{
  MOREAU_CALL(moreau_options_register("Run", moreau_app_options));
  MOREAU_CALL(moreau_options_register("Time stepping", moreau_sim_options));
  MOREAU_CALL(moreau_options_register("Materials", moreau_material_options));
  MOREAU_CALL(moreau_options_register("Rigid clusters", moreau_shape_options));
  MOREAU_CALL(moreau_options_register("Walls", moreau_wall_options));
  MOREAU_CALL(moreau_options_register("Periodic and sheared boxes", moreau_domain_options));
  MOREAU_CALL(moreau_options_register("Generator (when no -particles_file)", moreau_generate_options));
  MOREAU_CALL(moreau_options_register("Contact solver (NLGS)", moreau_nlgs_options));
  MOREAU_CALL(moreau_options_register("Partitioning (parallel runs)", moreau_part_options));
  MOREAU_CALL(moreau_options_register("Analysis", moreau_analysis_options));
  return MOREAU_SUCCESS;
}
