%%MatrixMarket matrix coordinate real general
% tiny training matrix for the driver tests
4 3 8
1 1 5.0
1 2 6.5
2 2 7.0
2 3 4.5
3 1 6.0
3 3 5.5
4 2 7.5
4 3 6.0
