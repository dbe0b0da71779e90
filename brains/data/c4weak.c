/* Weak/strong Connect Four solver (Pons' layering), for building the opening book. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#define W 7
#define H 6
#define H1 7
typedef uint64_t u64;
static const u64 BOTTOM = 0x0040810204081ULL; /* bit 0 of each column */
static const u64 BOARD = 0x0040810204081ULL * 63ULL;
static u64 col_mask(int c){return ((1ULL<<H)-1)<<(c*H1);}
static u64 top_mask(int c){return 1ULL<<(H-1+c*H1);}
static u64 bottom_mask(int c){return 1ULL<<(c*H1);}
static u64 winning(u64 s, u64 mask){
  u64 r=(s<<1)&(s<<2)&(s<<3); u64 p;
  int sh[3]={H1,H,H+2};
  for(int i=0;i<3;i++){int k=sh[i];
    p=(s<<k)&(s<<2*k); r|=p&(s<<3*k); r|=p&(s>>k);
    p=(s>>k)&(s>>2*k); r|=p&(s<<k); r|=p&(s>>3*k);}
  return r&(BOARD^mask);
}
#define TTBITS 24
static u64 *tkey; static int8_t *tlo, *thi;
static long long nodes;
static int order[W]={3,2,4,1,5,0,6};
static int negamax(u64 cur,u64 mask,int moves,int alpha,int beta){
  nodes++;
  u64 possible=(mask+BOTTOM)&BOARD;
  u64 opp=cur^mask;
  u64 thr=winning(opp,mask);
  u64 forced=possible&thr;
  if(forced){ if(forced&(forced-1)) return -(42-moves)/2; possible=forced; }
  u64 nxt=possible&~(thr>>1);
  if(!nxt) return -(42-moves)/2;
  if(moves>=40) return 0;
  int low=-(40-moves)/2; if(alpha<low){alpha=low; if(alpha>=beta) return alpha;}
  int high=(41-moves)/2;
  u64 key=cur+mask; u64 idx=(key*0x9E3779B97F4A7C15ULL)>>(64-TTBITS);
  if(tkey[idx]==key){ if(tlo[idx]>low){low=tlo[idx]; if(alpha<low){alpha=low; if(alpha>=beta) return alpha;}}
    if(thi[idx]<high) high=thi[idx]; }
  if(beta>high){beta=high; if(alpha>=beta) return beta;}
  u64 mv[W]; int sc[W]; int n=0;
  for(int i=0;i<W;i++){ u64 m=nxt&col_mask(order[i]); if(!m) continue;
    int s=__builtin_popcountll(winning(cur|m,mask|m));
    int j=n++; while(j>0 && sc[j-1]<s){mv[j]=mv[j-1];sc[j]=sc[j-1];j--;} mv[j]=m; sc[j]=s; }
  int a0=alpha;
  for(int i=0;i<n;i++){
    int s=-negamax(opp,mask|mv[i],moves+1,-beta,-alpha);
    if(s>=beta){ tkey[idx]=key; tlo[idx]=s; thi[idx]=high; return s; }
    if(s>alpha) alpha=s;
  }
  tkey[idx]=key; if(alpha>a0){tlo[idx]=alpha;thi[idx]=alpha;} else {tlo[idx]=low;thi[idx]=alpha;}
  return alpha;
}
static int solve(u64 cur,u64 mask,int moves,int weak){
  if(winning(cur,mask)&((mask+BOTTOM)&BOARD)) return weak?1:(43-moves)/2;
  int lo=-(42-moves)/2, hi=(43-moves)/2; if(weak){lo=-1;hi=1;}
  while(lo<hi){ int med=lo+(hi-lo)/2;
    if(med<=0 && lo/2<med) med=lo/2; else if(med>=0 && hi/2>med) med=hi/2;
    int r=negamax(cur,mask,moves,med,med+1); if(r<=med) hi=r; else lo=r; }
  if(weak) return (lo>0)-(lo<0);
  return lo;
}
/* stdin: lines "MOVES MODE" (MODE w or s); stdout: "MOVES s0 .. s6" scores of each column
   for the side to move (x: full); a column winning at once scores as such. */
int main(void){
  tkey=calloc(1ULL<<TTBITS,8); tlo=calloc(1ULL<<TTBITS,1); thi=calloc(1ULL<<TTBITS,1);
  char line[256], ms[128], mode[8];
  while(fgets(line,sizeof line,stdin)){
    mode[0]='w'; ms[0]=0;
    if(sscanf(line,"%127s %7s",ms,mode)<1) continue;
    if(ms[0]=='-') ms[0]=0;
    int weak=mode[0]=='w';
    u64 cur=0,mask=0; int moves=0, bad=0;
    for(char*p=ms;*p;p++){int c=*p-'1'; if(c<0||c>=W||(mask&top_mask(c))){bad=1;break;}
      u64 m=(mask+bottom_mask(c))&col_mask(c); cur^=mask; mask|=m; moves++;}
    if(bad){printf("%s bad\n",ms);fflush(stdout);continue;}
    printf("%s",ms[0]?ms:"-");
    for(int c=0;c<W;c++){
      if(mask&top_mask(c)){printf(" x");continue;}
      u64 m=(mask+bottom_mask(c))&col_mask(c);
      if(winning(cur,mask)&m){printf(" %d",weak?1:(43-moves)/2);continue;}
      printf(" %d",-solve(cur^mask,mask|m,moves+1,weak));
    }
    printf("\n"); fflush(stdout);
  }
  return 0;
}
