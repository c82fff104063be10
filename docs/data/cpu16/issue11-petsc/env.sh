# source: environment for the carried PETSc peer with a private Debian Open MPI root
R=/tmp/ompiroot/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=/tmp/pp/lib:$R:$R/openmpi/lib
export OMPI_MCA_mca_base_component_path=$R/openmpi/lib/openmpi3
export PMIX_MCA_mca_base_component_path=$R/pmix2/lib/pmix
export OPAL_PREFIX=/tmp/ompiroot/usr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
