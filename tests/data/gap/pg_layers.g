# A toy in PuzzleGeometry's style whose moves are inner layers: M_2F becomes the move 2F.
# 
M_F:=(1,2,3)(7,8,9);
M_2F:=(4,5,6);
M_D:=(1,4,7)(2,5,8);
M_2D:=(3,6,9);
Gen:=[
M_F,M_2F,M_D,M_2D
];
ip:=[[1],[4],[7]];
# Size(Group(Gen));

