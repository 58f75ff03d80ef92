apps/smpi/platforms/make_platform.py bgp --ranks 256 --shm-costs on --placement block --sharing fair
