#include "moreau/app.h"

int main(int argc, char **argv) { return moreau_app_main(argc, argv); }
